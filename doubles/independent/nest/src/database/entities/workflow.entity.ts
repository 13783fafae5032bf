import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import type { TaskBehaviour, WorkflowVariableDef } from '../plan.types.js';

/** A stored workflow (canvas) with its plan. */
@Entity('workflows')
@Index(['tenantId', 'updatedAt'])
export class WorkflowEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  canvasId: string;

  @Index()
  @Column({ type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'varchar', length: 300 })
  title: string;

  /** When false, running through the programmatic API answers 403. */
  @Column({ type: 'boolean', default: true })
  apiEnabled: boolean;

  @Column({ type: 'simple-json' })
  variables: WorkflowVariableDef[];

  @Column({ type: 'varchar', length: 16, nullable: true })
  locale: string | null;

  @OneToMany(() => WorkflowTaskEntity, (task) => task.workflow, { cascade: true })
  tasks: Relation<WorkflowTaskEntity>[];

  @CreateDateColumn({ type: 'datetime' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'datetime' })
  updatedAt: Date;
}

/** One task (node) of a workflow plan. */
@Entity('workflow_tasks')
@Index(['canvasId', 'position'])
export class WorkflowTaskEntity {
  @PrimaryGeneratedColumn()
  pk: number;

  @Column({ type: 'varchar', length: 64 })
  canvasId: string;

  @ManyToOne(() => WorkflowEntity, (workflow) => workflow.tasks, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'canvasId' })
  workflow: Relation<WorkflowEntity>;

  @Column({ type: 'varchar', length: 64 })
  taskId: string;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ type: 'text' })
  prompt: string;

  @Column({ type: 'simple-json' })
  toolsets: string[];

  @Column({ type: 'simple-json' })
  dependentTasks: string[];

  /** Nominal duration at speed 1. */
  @Column({ type: 'integer' })
  durationMs: number;

  @Column({ type: 'simple-json' })
  behaviour: TaskBehaviour;
}
