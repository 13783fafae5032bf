import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiException } from '../common/api.exception.js';
import { WorkflowEntity } from '../database/entities/index.js';
import { DEFAULT_PAGE_SIZE, SearchWorkflowsQuery, WorkflowOrder } from './dto/search-workflows.query.js';

const ORDER_SQL: Record<WorkflowOrder, [string, 'ASC' | 'DESC']> = {
  updationDesc: ['w.updatedAt', 'DESC'],
  updationAsc: ['w.updatedAt', 'ASC'],
  creationDesc: ['w.createdAt', 'DESC'],
  creationAsc: ['w.createdAt', 'ASC'],
  titleAsc: ['w.title', 'ASC'],
  titleDesc: ['w.title', 'DESC'],
};

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

@Injectable()
export class WorkflowsService {
  constructor(@InjectRepository(WorkflowEntity) private readonly workflows: Repository<WorkflowEntity>) {}

  async search(tenantId: string, query: SearchWorkflowsQuery): Promise<{ canvasId: string; title: string }[]> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const [column, direction] = ORDER_SQL[query.order ?? 'updationDesc'];
    const qb = this.workflows
      .createQueryBuilder('w')
      .select(['w.canvasId', 'w.title'])
      .where('w.tenantId = :tenantId', { tenantId });
    const keyword = query.keyword?.trim();
    if (keyword) {
      qb.andWhere(`LOWER(w.title) LIKE :kw ESCAPE '\\'`, { kw: `%${escapeLike(keyword.toLowerCase())}%` });
    }
    const rows = await qb
      .orderBy(column, direction)
      .addOrderBy('w.canvasId', 'ASC')
      .skip((page - 1) * pageSize)
      .take(pageSize)
      .getMany();
    return rows.map((w) => ({ canvasId: w.canvasId, title: w.title }));
  }

  /** The tenant's workflow with its tasks; 404 when absent or owned by another tenant. */
  async getOwned(tenantId: string, canvasId: string): Promise<WorkflowEntity> {
    const workflow = await this.workflows.findOne({
      where: { canvasId, tenantId },
      relations: { tasks: true },
    });
    if (!workflow) {
      throw ApiException.canvasNotFound(canvasId);
    }
    return workflow;
  }
}
