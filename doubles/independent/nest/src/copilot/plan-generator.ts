import type { TaskBehaviour, WorkflowVariableDef } from '../database/plan.types.js';
import type { SupportedLocale } from './dto/generate-workflow.dto.js';

/**
 * A deterministic, rule-based stand-in for the copilot model: it turns a
 * natural-language request into a plan (title, ordered tasks with toolsets and
 * dependencies, variables) and gives every task a behaviour so that generated
 * workflows can be run like any other.
 */

export interface GeneratedTask {
  taskId: string;
  title: string;
  prompt: string;
  toolsets: string[];
  dependentTasks: string[];
  durationMs: number;
  behaviour: TaskBehaviour;
}

export interface GeneratedPlan {
  title: string;
  tasks: GeneratedTask[];
  variables: WorkflowVariableDef[];
}

export class GenerationError extends Error {
  constructor(
    message: string,
    readonly modelResponse: string,
  ) {
    super(message);
  }
}

const MAX_TASKS = 8;
const MODEL_RESPONSE_LIMIT = 2000;

interface Phrases {
  completed: (title: string) => string;
  basedOn: string;
  reasoning: (title: string) => string;
  resultsHeading: string;
}

const EN: Phrases = {
  completed: (t) => `Completed "${t}".`,
  basedOn: 'Use the results of the previous task.',
  reasoning: (t) => `Planning how to approach "${t}" and which tools to use.`,
  resultsHeading: 'Results',
};

const PHRASES: Partial<Record<string, Phrases>> = {
  en: EN,
  'zh-CN': {
    completed: (t) => `已完成「${t}」。`,
    basedOn: '使用上一个任务的结果。',
    reasoning: (t) => `正在规划如何完成「${t}」以及使用哪些工具。`,
    resultsHeading: '结果',
  },
  'zh-Hant': {
    completed: (t) => `已完成「${t}」。`,
    basedOn: '使用上一個任務的結果。',
    reasoning: (t) => `正在規劃如何完成「${t}」以及使用哪些工具。`,
    resultsHeading: '結果',
  },
  ja: {
    completed: (t) => `「${t}」を完了しました。`,
    basedOn: '前のタスクの結果を使用します。',
    reasoning: (t) => `「${t}」の進め方と使用するツールを計画しています。`,
    resultsHeading: '結果',
  },
  fr: {
    completed: (t) => `« ${t} » terminé.`,
    basedOn: 'Utiliser les résultats de la tâche précédente.',
    reasoning: (t) => `Je planifie comment traiter « ${t} » et quels outils utiliser.`,
    resultsHeading: 'Résultats',
  },
  de: {
    completed: (t) => `„${t}“ abgeschlossen.`,
    basedOn: 'Die Ergebnisse der vorherigen Aufgabe verwenden.',
    reasoning: (t) => `Ich plane, wie „${t}“ angegangen wird und welche Werkzeuge nötig sind.`,
    resultsHeading: 'Ergebnisse',
  },
  es: {
    completed: (t) => `«${t}» completado.`,
    basedOn: 'Usar los resultados de la tarea anterior.',
    reasoning: (t) => `Planificando cómo abordar «${t}» y qué herramientas usar.`,
    resultsHeading: 'Resultados',
  },
};

function phrasesFor(locale: SupportedLocale | undefined): Phrases {
  if (!locale) {
    return EN;
  }
  return PHRASES[locale] ?? PHRASES[locale.split('-')[0]] ?? EN;
}

const TOOLSET_RULES: [RegExp, string][] = [
  [/\b(search\w*|research\w*|look up|find|news|trends?|competitors?|market)\b|搜索|调研|検索|recherch|buscar|suche/i, 'web_search'],
  [/\b(website|web ?page|url|scrap|crawl|link)\w*|网页|网站|ウェブ/i, 'web_reader'],
  [/\b(e-?mail|mail|send|notify)\w*|邮件|メール|courriel|correo/i, 'email'],
  [/\b(calendar|schedule|meeting|appointment)\w*|日程|会议|予定/i, 'calendar'],
  [/\b(spreadsheet|excel|csv|table|chart|data|analy[sz]\w*|calculat\w*|statistic\w*)|数据|表格|データ/i, 'code_interpreter'],
  [/\b(image|picture|photo|logo|illustration|banner)\w*|图片|画像/i, 'image_generation'],
  [/\b(report|document|doc|pdf|memo|summary|summari[sz]e|article|post|draft|write)\w*|报告|总结|文档|レポート|rapport|informe|bericht/i, 'document_writer'],
];

/** "…, and email it to …": a new step when "and" introduces one of these verbs. */
const STEP_VERBS =
  'email|e-mail|send|post|publish|share|notify|save|upload|export|import|create|write|draft|summari[sz]e|translate|schedule|compare|analy[sz]e|review|check|generate|prepare|compile|update|store|collect|gather|extract|score|rank|classify|format|convert|assign|book|remind';
const AND_VERB = new RegExp(`,?\\s+and\\s+(?:then\\s+)?(?=(?:${STEP_VERBS})\\b)`, 'i');

const CONNECTOR = /^(?:and\s+then|then|and|after\s+that|afterwards|next|finally|lastly|first(?:ly)?|second(?:ly)?|also|puis|ensuite|enfin|dann|danach|schließlich|luego|después|finalmente|然后|接着|之后|最后|首先|并且|そして|次に|最後に)[\s,，、:：]*/i;

function letters(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}

function splitSteps(query: string): string[] {
  const lines = query
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const listItems = lines.filter((l) => /^(?:[-*•]|\d+[.)])\s+/.test(l));
  let pieces: string[];
  if (listItems.length >= 2) {
    pieces = listItems.map((l) => l.replace(/^(?:[-*•]|\d+[.)])\s+/, ''));
  } else {
    pieces = query
      .replace(/\s+/g, ' ')
      .split(/(?<=[.!?。！？；;])\s*|,?\s+(?:and then|then|after that|afterwards|finally|puis|ensuite|dann|danach|luego|después)\s+|，?(?:然后|接着|之后|最后)|、?(?:そして|次に|最後に)/i)
      .map((p) => p?.trim() ?? '');
  }
  const steps = pieces
    .flatMap((p) => p.split(AND_VERB))
    .map((p) => p.replace(CONNECTOR, '').replace(/[.!?。！？；;,，\s]+$/u, '').trim())
    .filter((p) => letters(p) >= 2);
  if (steps.length > MAX_TASKS) {
    return [...steps.slice(0, MAX_TASKS - 1), steps.slice(MAX_TASKS - 1).join('; ')];
  }
  return steps;
}

function capitalize(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

function titleOf(step: string, max = 60): string {
  const capital = capitalize(step);
  if (capital.length <= max) {
    return capital;
  }
  const cut = capital.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trim()}…`;
}

function slug(text: string): string {
  const s = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .slice(0, 40)
    .replace(/-+$/, '');
  return s || 'workflow-result';
}

function detectVariables(query: string): WorkflowVariableDef[] {
  const vars: WorkflowVariableDef[] = [];
  const seen = new Set<string>();
  for (const match of query.matchAll(/\{\{?\s*([A-Za-z][\w-]{0,40})\s*\}?\}/g)) {
    const name = match[1];
    if (!seen.has(name)) {
      seen.add(name);
      vars.push({ name, variableType: 'string', required: true });
    }
  }
  if (/\b(upload(?:ed)?|attach(?:ed|ment)?|my (?:file|document|spreadsheet|pdf)|provided (?:file|document))\b|上传|附件|添付/i.test(query)) {
    if (!seen.has('source_file')) {
      vars.push({ name: 'source_file', variableType: 'resource', required: true });
    }
  }
  return vars;
}

/** A heading line above a list ("Weekly digest:") names the plan; otherwise the first step does. */
function planTitle(query: string, steps: string[]): string {
  const lines = query.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const first = lines[0] ?? '';
  const isListItem = /^(?:[-*•]|\d+[.)])\s+/.test(first);
  if (lines.length > 1 && !isListItem && letters(first) >= 3 && first.length <= 100) {
    return titleOf(first.replace(/[:：.。!?！？]+$/u, ''), 80);
  }
  return titleOf(steps[0], 80);
}

export function generatePlan(query: string, locale?: SupportedLocale): GeneratedPlan {
  const words = phrasesFor(locale);
  const steps = splitSteps(query);
  if (letters(query) < 3 || steps.length === 0) {
    const modelResponse = 'I could not identify a task to automate in this request. Please describe what the workflow should do, step by step.';
    throw new GenerationError('Workflow generation failed: no actionable steps found in the query', modelResponse.slice(0, MODEL_RESPONSE_LIMIT));
  }
  const title = planTitle(query, steps);
  const variables = detectVariables(query);
  const fileVar = variables.find((v) => v.variableType === 'resource');
  const wantsFile = /\b(report|document|summary|memo|table|csv|spreadsheet|plan|brief|article|draft)\b|报告|总结|文档|表格|レポート|rapport|informe|bericht/i.test(query);
  const wantsCsv = /\b(csv|spreadsheet|table|excel)\b|表格/i.test(query);

  const tasks: GeneratedTask[] = steps.map((step, i) => {
    const taskId = `task-${i + 1}`;
    const title = titleOf(step);
    const toolsets = TOOLSET_RULES.filter(([re]) => re.test(step)).map(([, name]) => name);
    const promptParts = [/[.。！？!?]$/.test(step) ? capitalize(step) : `${capitalize(step)}.`];
    if (i > 0) {
      promptParts.push(words.basedOn);
    }
    if (i === 0 && fileVar) {
      promptParts.push(`Input file: {{${fileVar.name}}}.`);
    }
    const isLast = i === steps.length - 1;
    const behaviour: TaskBehaviour = {
      messages: [
        ...(toolsets.length
          ? [{ type: 'tool' as const, content: `${toolsets.join(', ')}: ${toolsets.length} tool call(s) completed for "${title}".` }]
          : []),
        {
          type: 'ai' as const,
          reasoningContent: words.reasoning(title),
          content: `${words.completed(title)} ${step}`,
        },
      ],
      files:
        isLast && wantsFile
          ? [
              wantsCsv
                ? {
                    name: `${slug(title)}.csv`,
                    type: 'text/csv',
                    content: `step,title,status\n${steps.map((s, k) => `${k + 1},"${titleOf(s).replace(/"/g, '""')}",done`).join('\n')}\n`,
                  }
                : {
                    name: `${slug(title)}.md`,
                    type: 'text/markdown',
                    content: `# ${title}\n\n## ${words.resultsHeading}\n\n${steps.map((s, k) => `${k + 1}. ${titleOf(s, 200)}`).join('\n')}\n`,
                  },
            ]
          : [],
    };
    return {
      taskId,
      title,
      prompt: promptParts.join(' '),
      toolsets,
      dependentTasks: i > 0 ? [`task-${i}`] : [],
      durationMs: 900 + ((title.length * 37) % 700),
      behaviour,
    };
  });

  return { title, tasks, variables };
}
