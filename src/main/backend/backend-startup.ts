/**
 * What a stopped FieldDesk left behind, settled before anything new is written: half-written files
 * removed and said, visit photos a stop left half-added settled, and the downloads a previous run
 * left queued continued.
 */
import {
  isTemporaryPath,
  sweepMessage,
  sweepUnfinished,
  UNFINISHED_NOTICE_ID,
} from './core/unfinished-files';
import { sweepVisitPhotos } from './visits/visit-photos';
import type { Foundation } from './backend-foundation';
import type { Services } from './backend-services';

export async function settleAtStart(foundation: Foundation, services: Services): Promise<void> {
  const { now, dataDir, log, notices, unfinished, records, audioRecords } = foundation;
  const { downloads } = services;
  // What a stopped FieldDesk left half-written is removed, and said, before anything new is written;
  // only a download's `.part` can still be wanted (it is continued), never an export's or a report's.
  const swept = await sweepUnfinished(
    unfinished,
    (path) => !isTemporaryPath(path) && audioRecords.usesPart(path),
  );
  // Visit photos a stop left half-added are settled and said once, by visit, in words (visits/
  // visit-photos.ts); the temporary files that notice tells of are not named again in this one.
  const photoSweep = await sweepVisitPhotos({
    dataDir,
    visits: records.view('visits'),
    notices,
    log: log.child('visits.photos'),
    now,
    removedParts: swept.removed.map((entry) => entry.path),
  });
  const sweptMessage = sweepMessage({
    ...swept,
    removed: swept.removed.filter((entry) => !photoSweep.accounted.has(entry.path)),
  });
  if (sweptMessage !== null)
    notices.raise({ id: UNFINISHED_NOTICE_ID, tone: 'warning', message: sweptMessage });
  // Downloads a previous run left queued or running continue now.
  downloads.start();
}
