package com.example.workflow.service

import com.example.workflow.config.WorkflowProperties
import com.example.workflow.domain.UploadedFile
import com.example.workflow.domain.UploadedFileRepository
import com.example.workflow.web.BadRequestException
import com.example.workflow.web.ErrorCodes
import com.example.workflow.web.UploadResultDto
import com.example.workflow.web.UploadedFileDto
import org.slf4j.LoggerFactory
import org.springframework.scheduling.annotation.Scheduled
import org.springframework.stereotype.Service
import org.springframework.transaction.annotation.Transactional
import org.springframework.web.multipart.MultipartFile

@Service
class UploadService(
    private val uploads: UploadedFileRepository,
    private val props: WorkflowProperties,
) {
    private val log = LoggerFactory.getLogger(javaClass)

    @Transactional
    fun upload(tenant: Tenant, files: List<MultipartFile>?): UploadResultDto {
        val parts = files.orEmpty()
        if (parts.isEmpty()) {
            throw BadRequestException(ErrorCodes.INVALID_REQUEST_BODY, "At least one file is required in the multipart field 'files'")
        }
        if (parts.size > props.maxFilesPerUpload) {
            throw BadRequestException(ErrorCodes.INVALID_REQUEST_BODY, "Too many files: at most ${props.maxFilesPerUpload} per request")
        }
        parts.forEach {
            if (it.isEmpty) throw BadRequestException(ErrorCodes.INVALID_REQUEST_BODY, "File '${sanitize(it.originalFilename)}' is empty")
        }
        val stored = parts.map { part ->
            uploads.save(
                UploadedFile(
                    fileKey = Ids.fileKey(),
                    tenantId = tenant.id,
                    fileName = sanitize(part.originalFilename),
                    contentType = part.contentType?.take(255),
                    size = part.size,
                    data = part.bytes,
                    createdAt = now(),
                )
            )
        }
        return UploadResultDto(stored.map { UploadedFileDto(it.fileKey, it.fileName) })
    }

    /** Unused uploads are removed once older than the retention period (about 24 hours). */
    @Scheduled(fixedDelayString = "PT10M", initialDelayString = "PT10M")
    @Transactional
    fun cleanUpUnusedUploads() {
        val removed = uploads.deleteUnusedCreatedBefore(now().minus(props.uploadRetention))
        if (removed > 0) log.info("Removed {} unused uploaded file(s)", removed)
    }

    private fun sanitize(original: String?): String {
        val base = original.orEmpty().substringAfterLast('/').substringAfterLast('\\')
            .filterNot { it.isISOControl() }.trim()
        return base.take(255).ifBlank { "upload" }
    }
}
