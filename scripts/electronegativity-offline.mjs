// Loaded with `node --import` into the Electronegativity process only. The tool fetches its
// translations and Electron's release list with `got`; on our build machines (no internet) a
// retry inside `got` can throw from a timer and kill the tool before it writes its report. Here
// every such request fails at once, which the tool already handles ("No connectivity?").
import Module from 'node:module';

const originalLoad = Module._load;
function offlineGot() {
  return Promise.reject(new Error('FieldDesk security check runs offline.'));
}
offlineGot.head = offlineGot;
offlineGot.get = offlineGot;

Module._load = function load(request, parent, isMain) {
  if (request === 'got') return offlineGot;
  return originalLoad.call(this, request, parent, isMain);
};
