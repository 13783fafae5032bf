package com.example.workflow.domain

import org.springframework.data.domain.Page
import org.springframework.data.domain.Pageable
import org.springframework.data.jpa.repository.JpaRepository
import org.springframework.data.jpa.repository.Modifying
import org.springframework.data.jpa.repository.Query
import java.time.Instant

interface WorkflowRepository : JpaRepository<Workflow, String> {
    fun findByCanvasIdAndTenantId(canvasId: String, tenantId: String): Workflow?
    fun findByTenantIdAndTitleContainingIgnoreCase(tenantId: String, keyword: String, pageable: Pageable): Page<Workflow>
}

interface ExecutionRepository : JpaRepository<Execution, String> {
    fun findByExecutionIdAndTenantId(executionId: String, tenantId: String): Execution?
}

interface UploadedFileRepository : JpaRepository<UploadedFile, String> {
    fun findByFileKeyAndTenantId(fileKey: String, tenantId: String): UploadedFile?

    @Modifying
    @Query("delete from UploadedFile f where f.usedAt is null and f.createdAt < :cutoff")
    fun deleteUnusedCreatedBefore(cutoff: Instant): Int
}

interface DriveFileRepository : JpaRepository<DriveFile, String> {
    fun findByExecutionIdOrderByCreatedAtAscFileIdAsc(executionId: String): List<DriveFile>
    fun findByFileIdAndTenantId(fileId: String, tenantId: String): DriveFile?
}
