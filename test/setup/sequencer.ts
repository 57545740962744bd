// Vitest's order (groups, projects, the last run's durations), but the process project's longest files
// (LONGEST_FIRST) first, also on a fresh clone, which has no durations yet and would order them by size:
// a long file started last holds up the end of the run.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LONGEST_FIRST } from './process-tests.js';

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(this.ctx.config.root, spec.moduleId));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    const processFiles = sorted
      .filter((spec) => spec.project.name === 'process')
      .map((spec, order) => ({ spec, order, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ spec }) => spec);
    return [...sorted.filter((spec) => spec.project.name !== 'process'), ...processFiles];
  }
}
