package com.example.workflow.web

import jakarta.servlet.RequestDispatcher
import jakarta.servlet.http.HttpServletRequest
import org.springframework.boot.web.servlet.error.ErrorController
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.stereotype.Controller
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.ResponseBody

/**
 * Replaces Spring Boot's whitelabel /error page: errors that reach the servlet container's error
 * dispatch (e.g. raised outside Spring MVC) are answered with the JSON envelope as well.
 */
@Controller
class JsonErrorController : ErrorController {
    @RequestMapping("/error", produces = [MediaType.APPLICATION_JSON_VALUE])
    @ResponseBody
    fun error(request: HttpServletRequest): ResponseEntity<ApiResponse<Nothing>> {
        val code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) as? Int ?: 404 // direct GET /error: nothing to report
        val status = HttpStatus.resolve(code) ?: HttpStatus.INTERNAL_SERVER_ERROR
        val traceId = request.getAttribute(TraceIdFilter.ATTRIBUTE) as? String
        return ResponseEntity.status(status)
            .contentType(MediaType.APPLICATION_JSON)
            .body(ApiResponse.error(ErrorCodes.forStatus(status.value()), status.reasonPhrase, traceId))
    }
}
