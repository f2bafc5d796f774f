/** Loads the public configuration (/api/config) once and hands it to every screen. */
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { DEFAULT_CONFIG, fetchConfig, type PublicConfig } from '../lib/config.ts';

const AppConfigContext = createContext<PublicConfig>(DEFAULT_CONFIG);

export function AppConfigProvider({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<PublicConfig>(DEFAULT_CONFIG);
  useEffect(() => {
    const controller = new AbortController();
    // On failure the defaults stay: they are the API's own defaults, and the
    // screens work without the call (it only names the department).
    fetchConfig(controller.signal).then(setConfig, () => {});
    return () => controller.abort();
  }, []);
  return <AppConfigContext.Provider value={config}>{children}</AppConfigContext.Provider>;
}

/** The department abbreviation and upload limit. */
export function useAppConfig(): PublicConfig {
  return useContext(AppConfigContext);
}
