// useReducer whose state is updated at once: `latest()` returns the state after every action dispatched
// so far, even before React renders it, so each key of a chunk acts on the state the keys before it left.
import { useCallback, useRef, useState } from 'react';

export function useLatestReducer<S, A>(
  reducer: (state: S, action: A) => S,
  init: () => S,
): [state: S, dispatch: (action: A) => void, latest: () => S] {
  const [state, setState] = useState(init);
  const ref = useRef(state);
  const dispatch = useCallback(
    (action: A) => {
      ref.current = reducer(ref.current, action);
      setState(ref.current);
    },
    [reducer],
  );
  const latest = useCallback(() => ref.current, []);
  return [state, dispatch, latest];
}
