package com.example.workflow.web

import org.springframework.core.Ordered
import org.springframework.core.annotation.Order
import org.springframework.http.HttpStatus
import org.springframework.http.ResponseEntity
import org.springframework.http.converter.HttpMessageNotReadableException
import org.springframework.validation.FieldError
import org.springframework.web.bind.MethodArgumentNotValidException
import org.springframework.web.bind.annotation.ExceptionHandler
import org.springframework.web.bind.annotation.RestControllerAdvice

/**
 * Section 4.8 defines its own 400 body for the generate endpoint: {statusCode, message, error, modelResponse}.
 * Only 400s are shaped this way; 401/404/413/415 of this endpoint keep the common envelope.
 */
@RestControllerAdvice(assignableTypes = [CopilotController::class])
@Order(Ordered.HIGHEST_PRECEDENCE)
class CopilotExceptionHandler {

    @ExceptionHandler(MethodArgumentNotValidException::class)
    fun invalid(ex: MethodArgumentNotValidException): ResponseEntity<GenerateErrorBody> {
        val tooLong = ex.bindingResult.fieldErrors.any { it.field == "query" && it.code == "Size" }
        val message = ex.bindingResult.allErrors.joinToString("; ") { err ->
            if (err is FieldError) "${err.field}: ${err.defaultMessage}" else err.defaultMessage ?: "invalid"
        }
        return badRequest(message, if (tooLong) ErrorCodes.CONTENT_TOO_LARGE else ErrorCodes.INVALID_REQUEST_BODY)
    }

    @ExceptionHandler(HttpMessageNotReadableException::class)
    fun unreadable(ex: HttpMessageNotReadableException): ResponseEntity<*> {
        ex.payloadTooLarge()?.let {
            return ResponseEntity.status(HttpStatus.PAYLOAD_TOO_LARGE).body(ApiResponse.error(ErrorCodes.PAYLOAD_TOO_LARGE, it.message!!))
        }
        return badRequest(describeBodyError(ex), ErrorCodes.INVALID_REQUEST_BODY)
    }

    @ExceptionHandler(GenerationFailedException::class)
    fun failed(ex: GenerationFailedException): ResponseEntity<GenerateErrorBody> =
        ResponseEntity.badRequest().body(
            GenerateErrorBody(400, ex.message, ex.errCode, ex.modelResponse?.take(MODEL_RESPONSE_LIMIT))
        )

    @ExceptionHandler(BadRequestException::class)
    fun badRequest(ex: BadRequestException): ResponseEntity<GenerateErrorBody> = badRequest(ex.message, ex.errCode)

    private fun badRequest(message: String, error: String) =
        ResponseEntity.badRequest().body(GenerateErrorBody(statusCode = 400, message = message, error = error))

    companion object {
        const val MODEL_RESPONSE_LIMIT = 2000
    }
}
