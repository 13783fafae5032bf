package com.example.workflow.config

import org.springframework.boot.context.properties.ConfigurationProperties
import java.time.Duration

@ConfigurationProperties(prefix = "wf")
data class WorkflowProperties(
    /** Multiplies every execution duration (1 = nominal, 0.05 = twenty times faster). */
    val speed: Double = 1.0,
    val apiKeys: ApiKeys = ApiKeys(),
    val maxJsonPayloadBytes: Long = 102_400,
    val maxContentChars: Int = 100_000,
    val defaultPageSize: Int = 20,
    val maxPageSize: Int = 100,
    val uploadRetention: Duration = Duration.ofHours(24),
    val maxFilesPerUpload: Int = 20,
) {
    data class ApiKeys(
        val tenantA: String = "wf-key-tenant-a",
        val tenantB: String = "wf-key-tenant-b",
    )

    init {
        require(speed >= 0.0 && speed.isFinite()) { "wf.speed must be a finite number >= 0" }
    }
}
