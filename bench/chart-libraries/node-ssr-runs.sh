#!/bin/sh
# 5 fresh Node processes per library (cold render of the 10k scatter = first render in the process).
# plot-jsdom = Plot with a jsdom document (jsdom@26.1.0; jsdom 31 requires Node >=22). plain 'plot' = no DOM at all.
cd "$(dirname "$0")"
for lib in echarts vega plot plot-jsdom; do
  for i in 1 2 3 4 5; do node node-ssr.mjs $lib; done
done
