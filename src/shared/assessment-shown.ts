/**
 * An assessment as the screen is sent it: the engine's result without its hourly rows, which the
 * hourly table reads when it is opened (`assessment.hourly`). A year's hourly rows are half of a
 * 12 MB answer nobody looks at until they open that table; the figures, exceedances, evidence and
 * charts shown are the engine's own, unchanged.
 */
import type { AssessmentResult } from './assessment';

export type ShownAssessment = Omit<AssessmentResult, 'hourly'> & {
  /** How many hourly rows the result holds (the hourly table's size before it is read). */
  hourlyCount: number;
};

export function shownAssessment(result: AssessmentResult): ShownAssessment {
  const { hourly, ...shown } = result;
  return { ...shown, hourlyCount: hourly.length };
}
