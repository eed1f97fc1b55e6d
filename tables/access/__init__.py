"""Who may do what, and how often: the limits on failed authentications.

- :mod:`.throttles`: failed authentications counted per client address (and per
  username for sign-ins) in the shared cache; the API answers 429 past its limit.
- :mod:`.login`: the admin login, refusing before it hashes a password when an address
  or a username failed too often, or too many passwords are being hashed.
"""
