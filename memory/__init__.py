"""Memory: short-term, long-term, vector and experience memory."""
