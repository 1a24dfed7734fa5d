// Starts Redoc on /openapi.json, with no fonts or logos fetched from elsewhere.
window.Redoc.init("/openapi.json", { hideDownloadButton: false }, document.getElementById("redoc"));
