/** Loads the public configuration (/api/config) once and hands it to every screen. */
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { type AppConfig, DEFAULT_CONFIG, loadConfig } from '../lib/config.ts';

const AppConfigContext = createContext<AppConfig>(DEFAULT_CONFIG);

export function AppConfigProvider({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<AppConfig>(DEFAULT_CONFIG);
  useEffect(() => {
    let live = true;
    // On failure the defaults stay: they are the API's own defaults, and the
    // screens work without the call (it only names the department).
    loadConfig().then((loaded) => live && setConfig(loaded), () => {});
    return () => {
      live = false;
    };
  }, []);
  return <AppConfigContext.Provider value={config}>{children}</AppConfigContext.Provider>;
}

/** The department abbreviation, the upload limit and the entity's default language. */
export function useAppConfig(): AppConfig {
  return useContext(AppConfigContext);
}
