"""What an operator needs: the health view (/healthz), request logging and request ids."""
