from django.http import HttpRequest, HttpResponse


def home(request: HttpRequest) -> HttpResponse:
    return HttpResponse("Void Command Fleet Builder")


faction_list = faction_detail = ship_detail = rules = home
