// The GraphQL IDE at GET /graphql: GraphiQL's UMD build with React 18 and
// graphql-ws, all embedded in the commerce binary (scripts/graphiql.sh).
// Queries and mutations are POSTed to this page's own URL; subscriptions
// speak graphql-ws (the graphql-transport-ws subprotocol) to the same URL
// over ws: or wss:. Both URLs come from location, so the page works on any
// host, port, scheme or path prefix.
(function () {
  "use strict";

  // Radix (GraphiQL's dialogs) injects <style> elements; it tags them with
  // this nonce, which the page's Content-Security-Policy admits.
  window.__webpack_nonce__ = document.currentScript.nonce;

  var httpURL = location.protocol + "//" + location.host + location.pathname;
  var wsURL = (location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + location.pathname;

  // The Headers pane starts with a placeholder API key. Replace svc_… with a
  // key of yours: `make run` prints one for the development account; the
  // developer console (API keys), POST /v1/api-keys with an existing key, or
  // `commerce accounts create --email …` make more. Headers are not saved
  // in the browser: paste the key again after a reload.
  var placeholder = "Bearer svc_…";
  var defaultHeaders = JSON.stringify({ Authorization: placeholder }, null, 2);

  var defaultQuery = [
    "# commerce GraphQL API",
    "#",
    "# 1. In Headers below, replace svc_… with your",
    "#    API key: `make run` prints one; the console",
    "#    and POST /v1/api-keys make more.",
    "# 2. Run: Ctrl-Enter, or the ▶ button.",
    "#",
    "# The docs (top-left icon) load without a key.",
    "# Subscriptions use graphql-ws on this same URL.",
    "",
    "{",
    "  viewer {",
    "    id",
    "    email",
    "  }",
    "}",
    "",
  ].join("\n");

  function authorization(headers) {
    var value;
    Object.keys(headers).forEach(function (name) {
      if (name.toLowerCase() === "authorization") {
        value = String(headers[name]);
      }
    });
    return value;
  }

  // Until the placeholder is replaced, requests go without it (fetch cannot
  // send "…" in a header anyway): the schema loads, and account fields
  // answer with an authentication error that says what to send.
  function withoutPlaceholder(headers) {
    var out = {};
    Object.keys(headers || {}).forEach(function (name) {
      var value = headers[name];
      if (name.toLowerCase() === "authorization" && String(value).indexOf("…") >= 0) {
        return;
      }
      out[name] = value;
    });
    return out;
  }

  // One graphql-ws client per Authorization value: the key goes in the
  // connection_init payload ({"authorization": "Bearer svc_…"}), so a new
  // key needs a new connection.
  var current = null;
  function fetcherFor(auth) {
    if (current && current.auth === auth) {
      return current.fetcher;
    }
    if (current) {
      current.ws.dispose();
    }
    var ws = graphqlWs.createClient({
      url: wsURL,
      lazy: true,
      connectionParams: auth ? { authorization: auth } : {},
    });
    current = {
      auth: auth,
      ws: ws,
      fetcher: GraphiQL.createFetcher({
        url: httpURL,
        subscriptionUrl: wsURL,
        wsClient: ws,
        enableIncrementalDelivery: false,
      }),
    };
    return current.fetcher;
  }

  function fetcher(params, opts) {
    var headers = withoutPlaceholder(opts && opts.headers);
    return fetcherFor(authorization(headers))(params, Object.assign({}, opts, { headers: headers }));
  }

  var root = ReactDOM.createRoot(document.getElementById("graphiql"));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: defaultQuery,
      defaultHeaders: defaultHeaders,
      defaultEditorToolsVisibility: "headers",
      shouldPersistHeaders: false,
    }),
  );
})();
