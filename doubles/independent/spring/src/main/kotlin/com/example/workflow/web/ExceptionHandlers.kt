package com.example.workflow.web

import org.slf4j.LoggerFactory
import org.springframework.core.Ordered
import org.springframework.core.annotation.Order
import org.springframework.http.HttpHeaders
import org.springframework.http.HttpStatus
import org.springframework.http.HttpStatusCode
import org.springframework.http.ResponseEntity
import org.springframework.http.converter.HttpMessageNotReadableException
import org.springframework.validation.FieldError
import org.springframework.web.ErrorResponse
import org.springframework.web.bind.MethodArgumentNotValidException
import org.springframework.web.bind.annotation.ExceptionHandler
import org.springframework.web.bind.annotation.RestControllerAdvice
import org.springframework.web.context.request.WebRequest
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException
import org.springframework.web.multipart.MaxUploadSizeExceededException
import org.springframework.web.multipart.MultipartException
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler

internal fun Throwable.causeChain(): Sequence<Throwable> = generateSequence(this) { it.cause?.takeIf { c -> c !== it } }

internal fun Throwable.payloadTooLarge(): PayloadTooLargeException? =
    causeChain().filterIsInstance<PayloadTooLargeException>().firstOrNull()

internal fun describeBodyError(ex: HttpMessageNotReadableException): String {
    val root = ex.causeChain().last()
    return when (root) {
        is com.fasterxml.jackson.databind.exc.MismatchedInputException -> {
            val path = root.path.joinToString(".") { it.fieldName ?: "[${it.index}]" }
            val what = if (path.isBlank()) "request body" else "field '$path'"
            "Invalid $what: expected ${root.targetType?.let(::jsonTypeName) ?: "a different JSON type"}"
        }
        is com.fasterxml.jackson.core.JsonProcessingException -> "Malformed JSON request body: ${root.originalMessage}"
        else -> if (ex.message?.contains("Required request body is missing") == true) "Request body is required"
        else "Malformed JSON request body"
    }
}

private fun jsonTypeName(type: Class<*>): String = when {
    type == String::class.java -> "a string"
    Number::class.java.isAssignableFrom(type) || type.isPrimitive -> "a number"
    Map::class.java.isAssignableFrom(type) -> "a JSON object"
    Collection::class.java.isAssignableFrom(type) || type.isArray -> "a JSON array"
    else -> "a JSON object"
}

/**
 * Maps every error that reaches Spring MVC to the envelope of section 2.1
 * (success=false, errCode, errMsg, traceId). Framework exceptions keep their standard HTTP status.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class GlobalExceptionHandler : ResponseEntityExceptionHandler() {
    private val log = LoggerFactory.getLogger(javaClass)

    @ExceptionHandler(ApiException::class)
    fun handleApi(ex: ApiException): ResponseEntity<ApiResponse<Nothing>> =
        ResponseEntity.status(ex.status).body(ApiResponse.error(ex.errCode, ex.message))

    @ExceptionHandler(MethodArgumentTypeMismatchException::class)
    fun handleTypeMismatch(ex: MethodArgumentTypeMismatchException): ResponseEntity<ApiResponse<Nothing>> =
        ResponseEntity.badRequest()
            .body(ApiResponse.error(ErrorCodes.INVALID_REQUEST_BODY, "Invalid value for parameter '${ex.name}'"))

    @ExceptionHandler(MultipartException::class)
    fun handleMultipart(ex: MultipartException): ResponseEntity<ApiResponse<Nothing>> {
        if (ex is MaxUploadSizeExceededException) return uploadTooLarge()
        return ResponseEntity.badRequest()
            .body(ApiResponse.error(ErrorCodes.INVALID_REQUEST_BODY, "Malformed multipart request: ${ex.mostSpecificCause.message}"))
    }

    @ExceptionHandler(Exception::class)
    fun handleUnexpected(ex: Exception): ResponseEntity<ApiResponse<Nothing>> {
        log.error("Unhandled error", ex)
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR)
            .body(ApiResponse.error(ErrorCodes.UNKNOWN, "Unknown error, retry later"))
    }

    override fun handleHttpMessageNotReadable(
        ex: HttpMessageNotReadableException, headers: HttpHeaders, status: HttpStatusCode, request: WebRequest,
    ): ResponseEntity<Any>? {
        ex.payloadTooLarge()?.let {
            return ResponseEntity.status(HttpStatus.PAYLOAD_TOO_LARGE)
                .body(ApiResponse.error(ErrorCodes.PAYLOAD_TOO_LARGE, it.message!!))
        }
        return ResponseEntity.badRequest().body(ApiResponse.error(ErrorCodes.INVALID_REQUEST_BODY, describeBodyError(ex)))
    }

    override fun handleMethodArgumentNotValid(
        ex: MethodArgumentNotValidException, headers: HttpHeaders, status: HttpStatusCode, request: WebRequest,
    ): ResponseEntity<Any>? =
        ResponseEntity.badRequest().body(ApiResponse.error(ErrorCodes.INVALID_REQUEST_BODY, validationMessage(ex)))

    override fun handleMaxUploadSizeExceededException(
        ex: MaxUploadSizeExceededException, headers: HttpHeaders, status: HttpStatusCode, request: WebRequest,
    ): ResponseEntity<Any>? = uploadTooLarge()

    private fun <T> uploadTooLarge(): ResponseEntity<T> {
        @Suppress("UNCHECKED_CAST")
        return ResponseEntity.status(HttpStatus.PAYLOAD_TOO_LARGE).body(
            ApiResponse.error(ErrorCodes.PAYLOAD_TOO_LARGE, "Upload too large: at most 10MB per file and 20MB per request")
        ) as ResponseEntity<T>
    }

    /** Every other framework exception (404 no route, 405, 406, 415, ...) keeps its status and gets the envelope. */
    override fun handleExceptionInternal(
        ex: Exception, body: Any?, headers: HttpHeaders, statusCode: HttpStatusCode, request: WebRequest,
    ): ResponseEntity<Any>? {
        val detail = (ex as? ErrorResponse)?.body?.detail ?: ex.message ?: "Request failed"
        val envelope = ApiResponse.error(ErrorCodes.forStatus(statusCode.value()), detail)
        return ResponseEntity.status(statusCode).headers(headers).body(envelope)
    }

    companion object {
        fun validationMessage(ex: MethodArgumentNotValidException): String =
            ex.bindingResult.allErrors.joinToString("; ") { err ->
                if (err is FieldError) "${err.field}: ${err.defaultMessage}" else err.defaultMessage ?: "invalid"
            }
    }
}
