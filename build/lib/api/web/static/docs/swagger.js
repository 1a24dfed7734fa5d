// Starts Swagger UI on /openapi.json. A token pasted under "Authorize" is sent as a Bearer token
// by "Try it out"; nothing is loaded from outside this origin.
window.SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: false,
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
