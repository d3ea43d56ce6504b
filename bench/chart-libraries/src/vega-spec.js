const W = 640, H = 400;
export const specs = {
  bar: (data) => ({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', description: 'Bar chart of value for 8 categories', title: 'Sales by category', width: W, height: H, data: { values: data }, mark: 'bar',
    encoding: { x: { field: 'category', type: 'nominal' }, y: { field: 'value', type: 'quantitative' } } }),
  line: (data) => ({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', description: 'Daily value line', title: 'Daily value', width: W, height: H, data: { values: data }, mark: 'line',
    encoding: { x: { field: 'date', type: 'temporal' }, y: { field: 'value', type: 'quantitative', scale: { zero: false } } } }),
  scatter: (data) => ({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', description: 'Scatter of 10k points', title: 'Scatter 10k', width: W, height: H, data: { values: data }, mark: { type: 'point', filled: true, size: 6 },
    encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } }),
};
