"""Access: sign-ins and throttles."""
