from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed

from .models import Tenant, hash_api_key


class ApiKeyAuthentication(BaseAuthentication):
    """SPEC 5: `Authorization: Bearer <API_KEY>`; the key identifies the tenant.

    Keys are stored as SHA-256 hashes. The scheme name is matched case-insensitively
    (RFC 9110), the key itself exactly.
    """

    keyword = "bearer"

    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header.strip():
            return None  # -> NotAuthenticated (401) from IsAuthenticated
        parts = header.split()
        if len(parts) != 2 or parts[0].lower() != self.keyword:
            raise AuthenticationFailed("Invalid Authorization header; expected 'Bearer <API_KEY>'.")
        key = parts[1]
        tenant = Tenant.objects.filter(api_key_hash=hash_api_key(key)).first()
        if tenant is None:
            raise AuthenticationFailed("Invalid API key.")
        return tenant, key

    def authenticate_header(self, request):
        return 'Bearer realm="openapi"'
