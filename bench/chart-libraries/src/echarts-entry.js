import * as echarts from 'echarts/core';
import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, TooltipComponent, LegendComponent, DatasetComponent, AriaComponent, TitleComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
echarts.use([BarChart, LineChart, ScatterChart, GridComponent, TooltipComponent, LegendComponent, DatasetComponent, AriaComponent, TitleComponent, SVGRenderer]);

const W = 640, H = 400;
function make(el, option, o = {}) {
  const chart = echarts.init(el, o.theme ?? null, { renderer: 'svg', width: W, height: H });
  chart.setOption({ animation: false, aria: { enabled: true }, tooltip: {}, ...option });
  // setOption flushes synchronously (no lazyUpdate). ECharts only renders progressively with the canvas
  // painter (core/Scheduler.js: zr.painter.type === 'canvas'), so with SVG all 10k symbols are in the DOM on return.
  return chart;
}

export function barChart(el, data, o) {
  return make(el, { title: { text: 'Sales by category' }, dataset: { source: data }, xAxis: { type: 'category' }, yAxis: {}, series: [{ type: 'bar', encode: { x: 'category', y: 'value' } }] }, o);
}
export function lineChart(el, data, o) {
  return make(el, { title: { text: 'Daily value' }, dataset: { source: data }, xAxis: { type: 'time' }, yAxis: { scale: true }, series: [{ type: 'line', showSymbol: false, encode: { x: 'date', y: 'value' } }] }, o);
}
export function scatterChart(el, data, o = {}) {
  return make(el, { title: { text: 'Scatter 10k' }, dataset: { source: data }, xAxis: {}, yAxis: {}, series: [{ type: 'scatter', symbolSize: 3, encode: { x: 'x', y: 'y' } }] }, o);
}
export { echarts };
