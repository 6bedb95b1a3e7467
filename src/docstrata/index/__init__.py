"""The three indices: keyword (BM25 on tantivy), dense (exact cosine) and exact (section ids, terms)."""
