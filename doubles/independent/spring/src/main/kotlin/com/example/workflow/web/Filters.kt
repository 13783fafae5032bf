package com.example.workflow.web

import com.example.workflow.config.WorkflowProperties
import com.example.workflow.service.Tenant
import com.example.workflow.service.TenantRegistry
import com.fasterxml.jackson.databind.ObjectMapper
import jakarta.servlet.FilterChain
import jakarta.servlet.ReadListener
import jakarta.servlet.ServletInputStream
import jakarta.servlet.http.HttpServletRequest
import jakarta.servlet.http.HttpServletRequestWrapper
import jakarta.servlet.http.HttpServletResponse
import org.slf4j.MDC
import org.springframework.core.Ordered
import org.springframework.core.annotation.Order
import org.springframework.http.HttpHeaders
import org.springframework.http.MediaType
import org.springframework.stereotype.Component
import org.springframework.web.filter.OncePerRequestFilter
import java.util.UUID

internal fun HttpServletResponse.writeEnvelope(mapper: ObjectMapper, status: Int, body: ApiResponse<*>) {
    this.status = status
    contentType = MediaType.APPLICATION_JSON_VALUE
    characterEncoding = "UTF-8"
    mapper.writeValue(outputStream, body)
}

/** Assigns a trace id to every request (envelope field traceId, response header X-Trace-Id, log MDC). */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class TraceIdFilter : OncePerRequestFilter() {
    companion object {
        const val ATTRIBUTE = "wf.traceId"
        const val HEADER = "X-Trace-Id"
    }

    override fun doFilterInternal(request: HttpServletRequest, response: HttpServletResponse, chain: FilterChain) {
        val traceId = UUID.randomUUID().toString().replace("-", "")
        request.setAttribute(ATTRIBUTE, traceId)
        response.setHeader(HEADER, traceId)
        MDC.put("traceId", traceId)
        try {
            chain.doFilter(request, response)
        } finally {
            MDC.remove("traceId")
        }
    }
}

/**
 * API-key authentication (section 5): `Authorization: Bearer <API_KEY>` on every request.
 * Runs before routing, so a missing/invalid key is answered 401 whatever the path or method.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class ApiKeyAuthFilter(
    private val tenants: TenantRegistry,
    private val mapper: ObjectMapper,
) : OncePerRequestFilter() {
    companion object {
        const val TENANT_ATTRIBUTE = "wf.tenant"
        private val BEARER = Regex("^\\s*Bearer\\s+(\\S+)\\s*$", RegexOption.IGNORE_CASE)
    }

    override fun doFilterInternal(request: HttpServletRequest, response: HttpServletResponse, chain: FilterChain) {
        val header = request.getHeader(HttpHeaders.AUTHORIZATION)
        val key = header?.let { BEARER.find(it)?.groupValues?.get(1) }
        val tenant: Tenant? = key?.let { tenants.byApiKey(it) }
        if (tenant == null) {
            val msg = if (header.isNullOrBlank()) "Missing API key: send the header 'Authorization: Bearer <API_KEY>'"
            else "Invalid API key"
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
            response.writeEnvelope(
                mapper, HttpServletResponse.SC_UNAUTHORIZED,
                ApiResponse.error(ErrorCodes.UNAUTHORIZED, msg, request.getAttribute(TraceIdFilter.ATTRIBUTE) as? String),
            )
            return
        }
        request.setAttribute(TENANT_ATTRIBUTE, tenant)
        chain.doFilter(request, response)
    }
}

/**
 * Limit of section 8 / code E2005: a non-multipart request body may not exceed 100KB.
 * A declared Content-Length over the limit is refused at once; a chunked body is cut off while it is read.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class PayloadLimitFilter(
    private val props: WorkflowProperties,
    private val mapper: ObjectMapper,
) : OncePerRequestFilter() {

    override fun doFilterInternal(request: HttpServletRequest, response: HttpServletResponse, chain: FilterChain) {
        val contentType = request.contentType?.lowercase() ?: ""
        if (contentType.startsWith("multipart/")) {
            chain.doFilter(request, response) // uploads have their own (multipart) limits
            return
        }
        val limit = props.maxJsonPayloadBytes
        if (request.contentLengthLong > limit) {
            response.writeEnvelope(
                mapper, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
                ApiResponse.error(
                    ErrorCodes.PAYLOAD_TOO_LARGE,
                    PayloadTooLargeException(limit).message!!,
                    request.getAttribute(TraceIdFilter.ATTRIBUTE) as? String,
                ),
            )
            return
        }
        chain.doFilter(LimitedBodyRequest(request, limit), response)
    }

    private class LimitedBodyRequest(request: HttpServletRequest, private val limit: Long) :
        HttpServletRequestWrapper(request) {
        private val stream: ServletInputStream by lazy { LimitedInputStream(request.inputStream, limit) }
        override fun getInputStream(): ServletInputStream = stream
    }

    private class LimitedInputStream(private val delegate: ServletInputStream, private val limit: Long) :
        ServletInputStream() {
        private var count = 0L

        private fun account(n: Int) {
            if (n > 0) {
                count += n
                if (count > limit) throw PayloadTooLargeException(limit)
            }
        }

        override fun read(): Int {
            val b = delegate.read()
            if (b >= 0) account(1)
            return b
        }

        override fun read(b: ByteArray, off: Int, len: Int): Int {
            val n = delegate.read(b, off, len)
            account(n)
            return n
        }

        override fun isFinished() = delegate.isFinished
        override fun isReady() = delegate.isReady
        override fun setReadListener(listener: ReadListener?) = delegate.setReadListener(listener)
    }
}
