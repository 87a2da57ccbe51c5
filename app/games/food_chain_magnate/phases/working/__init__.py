"""Phase 3, working 9-5 (§6.3): players act in turn order, step by step."""
