"""The HTTP side: views, forms, invitations, context processors and middleware."""
