// Stands in for VS Code's webview API: records posted messages, keeps setState in sessionStorage
// (so a reload behaves like a hidden/shown webview), and records CSP violations.
(function () {
  window.__posted = [];
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', function (e) {
    window.__violations.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || ''));
  });
  var acquired = false;
  var KEY = 'tandem-harness-state';
  window.acquireVsCodeApi = function () {
    if (acquired) throw new Error('acquireVsCodeApi called twice');
    acquired = true;
    return {
      postMessage: function (m) {
        window.__posted.push(JSON.parse(JSON.stringify(m)));
      },
      getState: function () {
        var s = sessionStorage.getItem(KEY);
        return s ? JSON.parse(s) : undefined;
      },
      setState: function (s) {
        sessionStorage.setItem(KEY, JSON.stringify(s));
        return s;
      },
    };
  };
})();
