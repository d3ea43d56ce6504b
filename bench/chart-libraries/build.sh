#!/bin/sh
# Bundle each entry with esbuild; then report minified and gzip -9 sizes.
set -e
cd "$(dirname "$0")"
E=./node_modules/.bin/esbuild
FL="--bundle --minify --format=esm --target=es2022 --log-level=warning"
$E src/echarts-entry.js $FL --outfile=dist/echarts.js
$E src/plot-entry.js $FL --outfile=dist/plot.js
$E src/vega-entry.js $FL --outfile=dist/vega.js
$E src/vega-nointerp-entry.js $FL --outfile=dist/vega-nointerp.js
$E src/data.js $FL --outfile=dist/data.js
# metafiles for inspecting what got in
for n in echarts plot vega; do $E src/$n-entry.js $FL --outfile=dist/meta-tmp.js --metafile=dist/$n.meta.json; done; rm -f dist/meta-tmp.js
node sizes.mjs
