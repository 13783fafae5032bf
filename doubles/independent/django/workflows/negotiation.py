from rest_framework.negotiation import BaseContentNegotiation


class AlwaysJSONNegotiation(BaseContentNegotiation):
    """The API only speaks JSON: answer JSON whatever the Accept header says (no 406)."""

    def select_parser(self, request, parsers):
        for parser in parsers:
            if self._matches(request.content_type, parser.media_type):
                return parser
        return None

    @staticmethod
    def _matches(content_type, media_type):
        main = (content_type or "").split(";")[0].strip().lower()
        return main == media_type or (media_type == "application/json" and main.endswith("+json"))

    def select_renderer(self, request, renderers, format_suffix=None):
        return (renderers[0], renderers[0].media_type)
