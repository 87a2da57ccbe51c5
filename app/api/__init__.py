"""HTTP and websocket routers: parse, call a service, shape the answer."""
