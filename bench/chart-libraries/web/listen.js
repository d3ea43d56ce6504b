// Classic script, runs before any module: collects CSP violations, errors and long tasks.
window.__violations = [];
window.__errors = [];
window.__longtasks = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, where: e.sourceFile + ':' + e.lineNumber }));
window.addEventListener('error', (e) => window.__errors.push('error: ' + e.message));
window.addEventListener('unhandledrejection', (e) => window.__errors.push('unhandledrejection: ' + (e.reason && e.reason.message || e.reason)));
try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true }); }
catch (e) { window.__errors.push('longtask observer unsupported: ' + e.message); }
