import type { Extension, Setting, SettingKey } from '../../contracts/agent.js';

/** A setting whose value has its key's type. */
export function setting<T>(key: SettingKey<T>, value: T): Setting {
  return Object.freeze({ key: key as SettingKey<unknown>, value });
}

/** The value the extensions in effect give a setting: the last one that sets it wins (an agent's own over a plugin's). */
export function settingOf<T>(extensions: readonly Extension[], key: SettingKey<T>): T | undefined {
  for (let index = extensions.length - 1; index >= 0; index--) {
    const settings = extensions[index]?.settings;
    if (settings === undefined) continue;
    for (let at = settings.length - 1; at >= 0; at--) if (settings[at]?.key === key) return settings[at]?.value as T;
  }
  return undefined;
}
