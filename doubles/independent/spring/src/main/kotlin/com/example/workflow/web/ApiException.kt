package com.example.workflow.web

import org.springframework.http.HttpStatus

/** Error codes used by this service (section 7 codes where one fits, plus a few documented additions). */
object ErrorCodes {
    const val UNAUTHORIZED = "E0004"                  // authorization process failed
    const val UNKNOWN = "E0000"                       // unknown error, retry later
    const val CANVAS_NOT_FOUND = "CANVAS_NOT_FOUND"
    const val INVALID_REQUEST_BODY = "INVALID_REQUEST_BODY"
    const val EXECUTION_NOT_FOUND = "E1021"           // workflow execution not found
    const val UPLOAD_FILE_NOT_FOUND = "E1012"         // upload file not found
    const val DRIVE_FILE_NOT_FOUND = "E1024"          // drive file not found
    const val CONTENT_TOO_LARGE = "E2004"             // content too large; maximum length 100k characters
    const val PAYLOAD_TOO_LARGE = "E2005"             // request payload too large; maximum size 100KB
    const val ACTION_STOPPED = "E3004"                // action was stopped
    const val TOOL_CALL_FAILED = "E3012"              // tool call failed
    // additions (no code in the specification's table fits)
    const val WORKFLOW_API_DISABLED = "WORKFLOW_API_DISABLED"
    const val GENERATION_FAILED = "WORKFLOW_GENERATION_FAILED"
    const val NOT_FOUND = "NOT_FOUND"
    const val METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    const val NOT_ACCEPTABLE = "NOT_ACCEPTABLE"
    const val UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"

    fun forStatus(status: Int): String = when (status) {
        400 -> INVALID_REQUEST_BODY
        401 -> UNAUTHORIZED
        404 -> NOT_FOUND
        405 -> METHOD_NOT_ALLOWED
        406 -> NOT_ACCEPTABLE
        413 -> PAYLOAD_TOO_LARGE
        415 -> UNSUPPORTED_MEDIA_TYPE
        in 500..599 -> UNKNOWN
        else -> "HTTP_$status"
    }
}

open class ApiException(
    val status: HttpStatus,
    val errCode: String,
    override val message: String,
) : RuntimeException(message)

class CanvasNotFoundException(canvasId: String) :
    ApiException(HttpStatus.NOT_FOUND, ErrorCodes.CANVAS_NOT_FOUND, "Workflow (canvas) '$canvasId' not found")

class ExecutionNotFoundException(executionId: String) :
    ApiException(HttpStatus.NOT_FOUND, ErrorCodes.EXECUTION_NOT_FOUND, "Workflow execution '$executionId' not found")

class WorkflowApiDisabledException(canvasId: String) :
    ApiException(HttpStatus.FORBIDDEN, ErrorCodes.WORKFLOW_API_DISABLED, "The workflow API is disabled for workflow '$canvasId'")

class BadRequestException(errCode: String, message: String) :
    ApiException(HttpStatus.BAD_REQUEST, errCode, message)

/** Generation produced no usable plan: answered with the 400 body of section 4.8. */
class GenerationFailedException(message: String, val modelResponse: String?) :
    ApiException(HttpStatus.BAD_REQUEST, ErrorCodes.GENERATION_FAILED, message)

/** Thrown by the payload-limit stream while a JSON body is read. */
class PayloadTooLargeException(limit: Long) :
    java.io.IOException("Request payload too large; maximum size is ${limit / 1024}KB")
