from django.urls import include, path

urlpatterns = [
    path("v1/", include("workflows.urls")),
]

# JSON answers for requests that never reach a DRF view (unknown paths, crashes).
handler400 = "workflows.errors.handler400"
handler404 = "workflows.errors.handler404"
handler500 = "workflows.errors.handler500"
