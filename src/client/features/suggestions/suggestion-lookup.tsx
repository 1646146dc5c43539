import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { Architecture } from '../../../common/contract/architecture';
import type { Suggestion } from '../../../common/contract/ai';

/**
 * What every source link on the page needs: the suggestions by id (the narrative cites them by id)
 * and the components' titles (suggestions and comments name components by id).
 */
export interface SuggestionLookup {
  suggestionById: ReadonlyMap<number, Suggestion>;
  titleOf: (componentId: string) => string;
}

const LookupContext = createContext<SuggestionLookup>({ suggestionById: new Map(), titleOf: (id) => id });

/** Every titled component of the review: the cards of all groups and the diagram's boxes. */
export function componentTitles(architecture: Architecture | undefined): ReadonlyMap<string, string> {
  const titles = new Map<string, string>();
  if (architecture === undefined) return titles;
  for (const group of architecture.groups) for (const card of group.cards) titles.set(card.id, card.title);
  for (const component of architecture.diagram.components) if (!titles.has(component.id)) titles.set(component.id, component.title);
  return titles;
}

export function SuggestionLookupProvider({ suggestions, architecture, children }: { suggestions: readonly Suggestion[]; architecture: Architecture | undefined; children: ReactNode }) {
  const value = useMemo<SuggestionLookup>(() => {
    const titles = componentTitles(architecture);
    return {
      suggestionById: new Map(suggestions.map((suggestion) => [suggestion.id, suggestion])),
      // Until the architecture arrives (or for a component it no longer has) the id is the best name there is.
      titleOf: (componentId) => titles.get(componentId) ?? componentId,
    };
  }, [suggestions, architecture]);
  return <LookupContext.Provider value={value}>{children}</LookupContext.Provider>;
}

export function useSuggestionLookup(): SuggestionLookup {
  return useContext(LookupContext);
}
