package com.example.workflow.web

import com.fasterxml.jackson.annotation.JsonInclude
import com.fasterxml.jackson.annotation.JsonPropertyOrder
import org.springframework.web.context.request.RequestAttributes
import org.springframework.web.context.request.RequestContextHolder

/** The response envelope of section 2.1, used for every success and for every error but the 400 of generate. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder("success", "errCode", "errMsg", "traceId", "data")
data class ApiResponse<T>(
    val success: Boolean,
    val errCode: String? = null,
    val errMsg: String? = null,
    val traceId: String? = null,
    val data: T? = null,
) {
    companion object {
        fun <T> ok(data: T? = null): ApiResponse<T> = ApiResponse(success = true, traceId = currentTraceId(), data = data)

        fun error(errCode: String, errMsg: String, traceId: String? = currentTraceId()): ApiResponse<Nothing> =
            ApiResponse(success = false, errCode = errCode, errMsg = errMsg, traceId = traceId)

        fun currentTraceId(): String? =
            RequestContextHolder.getRequestAttributes()
                ?.getAttribute(TraceIdFilter.ATTRIBUTE, RequestAttributes.SCOPE_REQUEST) as? String
    }
}

/** The 400 body of POST /openapi/copilot/workflow/generate (section 4.8). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder("statusCode", "message", "error", "modelResponse")
data class GenerateErrorBody(
    val statusCode: Int,
    val message: String,
    val error: String,
    val modelResponse: String? = null,
)
