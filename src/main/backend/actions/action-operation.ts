/**
 * Field actions as operations: Identify, Calibration and SIC.
 *
 * `startActionOperation` is the thin runner around the state machine of `action-state.ts`: it feeds
 * it events from the service (the start request, a progress source, a time-out timer, a cancel) and
 * reports every change to the operations registry.
 */
import { toErrorData } from '../../../shared/errors';
import { isFinishedState, type OperationSnapshot } from '../../../shared/operations';
import { PHASES } from './action-messages';
import type { ActionProgressSource } from './action-progress';
import {
  change,
  initialActionState,
  reduceAction,
  type ActionEvent,
  type NewActionOperation,
} from './action-state';
import type { ServiceClient } from '../service/client';
import type { OperationRegistry } from '../operations/registry';

export interface ActionRunnerDeps {
  client: Pick<ServiceClient, 'startAction'>;
  progress: ActionProgressSource;
  registry: OperationRegistry;
  now: () => number;
}

/**
 * Starts an action operation and returns its first snapshot at once; the work continues in the
 * background, reported through the registry. Never throws for service failures: they end the
 * operation as `failed`.
 */
export function startActionOperation(
  deps: ActionRunnerDeps,
  params: Omit<NewActionOperation, 'id' | 'startedAt'>,
): OperationSnapshot {
  const { client, progress, registry, now } = deps;
  let state = initialActionState({ ...params, id: registry.newId(), startedAt: now() });
  const controller = new AbortController();

  const dispatch = (event: ActionEvent): void => {
    const next = reduceAction(state, event);
    if (next === state) return;
    state = next;
    if (isFinishedState(state.snapshot.state)) {
      clearTimeout(timer);
      // Stops the start request or the watcher; the registry gets the final snapshot below.
      controller.abort();
    }
    registry.update(state.snapshot);
  };

  registry.begin(state.snapshot, { cancel: () => dispatch({ type: 'cancel', at: now() }) });
  // Declared after `dispatch` but set before anything can call it (begin() does not cancel).
  const timer = setTimeout(() => dispatch({ type: 'tick', at: now() }), state.timeoutMs);

  const drive = async (): Promise<void> => {
    let answer;
    try {
      answer = await client.startAction(params.serial, params.action, controller.signal);
    } catch (error) {
      if (!controller.signal.aborted) dispatch({ type: 'startFailed', at: now(), error: toErrorData(error) });
      return;
    }
    dispatch({ type: 'accepted', at: now(), status: answer.status });
    if (state.snapshot.state !== 'running' || params.action === 'Identify') return;
    const watching = progress.watch({
      serial: params.serial,
      action: params.action,
      sinceMs: state.sinceMs,
      signal: controller.signal,
    });
    for await (const observation of watching) {
      dispatch({ type: 'observed', at: now(), observation });
      if (isFinishedState(state.snapshot.state)) break;
    }
  };

  void drive().catch((error: unknown) => {
    // A bug, not a service failure: end the operation rather than leave it running forever.
    if (isFinishedState(state.snapshot.state)) return;
    const data = toErrorData(error);
    state = change(state, now(), {
      state: 'failed',
      phase: PHASES.failed,
      message: data.message,
      error: data,
    });
    clearTimeout(timer);
    controller.abort();
    registry.update(state.snapshot);
  });

  return state.snapshot;
}
