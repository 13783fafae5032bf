package com.example.workflow.service

import com.example.workflow.config.WorkflowProperties
import org.springframework.stereotype.Component
import java.security.MessageDigest
import java.security.SecureRandom

data class Tenant(val id: String, val name: String)

object Tenants {
    val A = Tenant("tenant-a", "Northwind Outfitters")
    val B = Tenant("tenant-b", "Lumen Dental Group")
}

/** Resolves API keys (WF_KEY_A / WF_KEY_B) to tenants with a constant-time comparison. */
@Component
class TenantRegistry(props: WorkflowProperties) {
    private val entries: List<Pair<ByteArray, Tenant>>

    init {
        val a = props.apiKeys.tenantA
        val b = props.apiKeys.tenantB
        require(a.isNotBlank() && b.isNotBlank()) { "API keys must not be blank" }
        require(a != b) { "Tenant A and tenant B must have different API keys" }
        entries = listOf(a.toByteArray() to Tenants.A, b.toByteArray() to Tenants.B)
    }

    fun byApiKey(key: String): Tenant? {
        val candidate = key.toByteArray()
        var found: Tenant? = null
        for ((k, t) in entries) if (MessageDigest.isEqual(k, candidate)) found = t
        return found
    }
}

object Ids {
    private val random = SecureRandom()
    private const val ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

    fun random(prefix: String, length: Int = 20): String =
        buildString(prefix.length + 1 + length) {
            append(prefix).append('-')
            repeat(length) { append(ALPHABET[random.nextInt(ALPHABET.length)]) }
        }

    fun canvasId() = random("c", 16)
    fun executionId() = random("we")
    fun fileKey() = random("fk")
    fun driveFileId() = random("df")
    fun messageId() = random("msg", 16)
}
