import os

from django.core.wsgi import get_wsgi_application

from fleetbuilder.config import load_settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fleetbuilder.settings")
# A bad environment value is one line on stderr, then exit status 4: gunicorn's "App failed to
# load", which stops the server instead of booting a new worker into the same error forever.
load_settings_or_exit(status=4)
application = get_wsgi_application()
