// Imported first by server.js, before Express, React or the build read the environment:
// `npm start` serves the production build, so an unset NODE_ENV means production (no stack traces
// on error pages, React's production build, the production logger), never development.
if (!process.env.NODE_ENV?.trim()) process.env.NODE_ENV = "production";
