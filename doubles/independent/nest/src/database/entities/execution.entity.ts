import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import type { BoundVariable, ExecutionStatus, MessageType, NodeStatus, TaskBehaviour } from '../plan.types.js';

/** One run of a workflow. */
@Entity('workflow_executions')
@Index(['tenantId', 'createdAt'])
export class ExecutionEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  executionId: string;

  @Column({ type: 'varchar', length: 64 })
  tenantId: string;

  @Index()
  @Column({ type: 'varchar', length: 64 })
  canvasId: string;

  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ type: 'varchar', length: 16 })
  status: ExecutionStatus;

  @Column({ type: 'simple-json' })
  variables: BoundVariable[];

  @OneToMany(() => NodeExecutionEntity, (node) => node.execution, { cascade: true })
  nodes: Relation<NodeExecutionEntity>[];

  /** Set by the service (millisecond precision), not by a database default. */
  @Column({ type: 'datetime' })
  createdAt: Date;

  @Column({ type: 'datetime' })
  updatedAt: Date;

  @Column({ type: 'datetime', nullable: true })
  startedAt: Date | null;

  @Column({ type: 'datetime', nullable: true })
  endedAt: Date | null;
}

/** The state of one node (task) within an execution; a snapshot of the task at run time. */
@Entity('node_executions')
@Index(['executionId', 'position'])
export class NodeExecutionEntity {
  @PrimaryGeneratedColumn()
  pk: number;

  @Column({ type: 'varchar', length: 64 })
  executionId: string;

  @ManyToOne(() => ExecutionEntity, (execution) => execution.nodes, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'executionId' })
  execution: Relation<ExecutionEntity>;

  @Column({ type: 'varchar', length: 64 })
  nodeId: string;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'varchar', length: 300 })
  title: string;

  @Column({ type: 'varchar', length: 16 })
  status: NodeStatus;

  @Column({ type: 'text', nullable: true })
  errorMessage: string | null;

  @Column({ type: 'datetime', nullable: true })
  startTime: Date | null;

  @Column({ type: 'datetime', nullable: true })
  endTime: Date | null;

  @Column({ type: 'simple-json' })
  dependsOn: string[];

  @Column({ type: 'integer' })
  durationMs: number;

  /** Behaviour with the run's variables already filled in. */
  @Column({ type: 'simple-json' })
  behaviour: TaskBehaviour;

  @OneToMany(() => ExecutionMessageEntity, (message) => message.node, { cascade: true })
  messages: Relation<ExecutionMessageEntity>[];
}

/** A message produced by a node; its content grows while the node executes. */
@Entity('execution_messages')
@Index(['nodePk', 'position'])
export class ExecutionMessageEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  messageId: string;

  @Column({ type: 'integer' })
  nodePk: number;

  @ManyToOne(() => NodeExecutionEntity, (node) => node.messages, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'nodePk' })
  node: Relation<NodeExecutionEntity>;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'varchar', length: 8 })
  type: MessageType;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'text', nullable: true })
  reasoningContent: string | null;
}
