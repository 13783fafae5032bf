package com.example.workflow.config

import org.springframework.boot.context.event.ApplicationReadyEvent
import org.springframework.boot.web.context.WebServerApplicationContext
import org.springframework.context.event.EventListener
import org.springframework.stereotype.Component

/** Prints the single machine-readable readiness line once Tomcat accepts connections. */
@Component
class ReadyAnnouncer {
    @EventListener
    fun onReady(event: ApplicationReadyEvent) {
        val ctx = event.applicationContext as? WebServerApplicationContext ?: return
        val port = ctx.webServer.port
        System.out.println("listening http://127.0.0.1:$port/v1")
        System.out.flush()
    }
}
