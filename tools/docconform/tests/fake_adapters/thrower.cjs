// A fake implementation with a bug: an uncaught exception (Node exits 1 with a stack trace).
throw new TypeError("adapter bug");
