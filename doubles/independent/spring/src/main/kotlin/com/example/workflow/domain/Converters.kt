package com.example.workflow.domain

import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import com.fasterxml.jackson.module.kotlin.readValue
import jakarta.persistence.AttributeConverter
import jakarta.persistence.Converter

private val json = jacksonObjectMapper()

/** Stores a list of strings (toolsets, dependencies, options) as a JSON text column. */
@Converter
class StringListConverter : AttributeConverter<List<String>, String> {
    override fun convertToDatabaseColumn(attribute: List<String>?): String = json.writeValueAsString(attribute ?: emptyList<String>())
    override fun convertToEntityAttribute(dbData: String?): List<String> =
        if (dbData.isNullOrBlank()) emptyList() else json.readValue(dbData)
}

/** Stores free-form JSON values (resolved run variables, generated messages) as a text column. */
@Converter
class JsonMapConverter : AttributeConverter<Map<String, Any?>, String> {
    override fun convertToDatabaseColumn(attribute: Map<String, Any?>?): String = json.writeValueAsString(attribute ?: emptyMap<String, Any?>())
    override fun convertToEntityAttribute(dbData: String?): Map<String, Any?> =
        if (dbData.isNullOrBlank()) emptyMap() else json.readValue(dbData)
}

data class StoredMessage(
    val messageId: String = "",
    val type: String = "ai",
    val content: String = "",
    val reasoningContent: String? = null,
)

@Converter
class MessageListConverter : AttributeConverter<List<StoredMessage>, String> {
    override fun convertToDatabaseColumn(attribute: List<StoredMessage>?): String = json.writeValueAsString(attribute ?: emptyList<StoredMessage>())
    override fun convertToEntityAttribute(dbData: String?): List<StoredMessage> =
        if (dbData.isNullOrBlank()) emptyList() else json.readValue(dbData)
}
