"""The shared core: tables, shoes and rounds written and stored."""
