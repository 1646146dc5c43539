import { describe, expect, it } from 'vitest';
import { addressingOf, onlyAddress, withoutAddress } from './addressing.js';

/** Greetings and teammates called, out of the words a lead reads. */

const members = addressingOf(['Priya Raman', 'Omar Haddad', 'Lena Vogt']);
const strip = (sentence: string) => withoutAddress(sentence, members);

describe('withoutAddress', () => {
  it('drops a greeting to the team, however it is written', () => {
    expect(strip('Hi all, keep the pager rota in one calendar.')).toBe('Keep the pager rota in one calendar.');
    expect(strip('Good morning everyone: keep the pager rota in one calendar.')).toBe('Keep the pager rota in one calendar.');
    expect(strip('Team — keep the pager rota in one calendar.')).toBe('Keep the pager rota in one calendar.');
    expect(strip('Folks, keep the pager rota in one calendar.')).toBe('Keep the pager rota in one calendar.');
  });

  it('drops members called by name or handle at the start, and a name the sentence ends on', () => {
    expect(strip('Priya, move the disk checks to the storage team.')).toBe('Move the disk checks to the storage team.');
    expect(strip('Omar Haddad: move the disk checks to the storage team.')).toBe('Move the disk checks to the storage team.');
    expect(strip('Hey Priya and Lena, move the disk checks to the storage team.')).toBe('Move the disk checks to the storage team.');
    expect(strip('@lena move the disk checks to the storage team.')).toBe('Move the disk checks to the storage team.');
    expect(strip('@sre-oncall, move the disk checks to the storage team.')).toBe('Move the disk checks to the storage team.');
    expect(strip('Move the disk checks to the storage team, Omar.')).toBe('Move the disk checks to the storage team.');
  });

  it('drops a teammate credited at the start, and tells a sentence that does nothing else', () => {
    expect(strip('Lena has a point, a rebuild can take the whole night.')).toBe('A rebuild can take the whole night.');
    expect(strip("Omar's right about the pool, 'degraded' alone tells on-call nothing.")).toBe("'Degraded' alone tells on-call nothing.");
    expect(strip('Priya yes, but only for arrays under warranty.')).toBe('But only for arrays under warranty.');
    expect(onlyAddress('Priya is right on the firmware though.', members)).toBe(true);
    expect(onlyAddress('Hi all!', members)).toBe(true);
    expect(onlyAddress('Priya is right: the firmware matters more.', members)).toBe(false);
    expect(onlyAddress('The firmware matters more.', members)).toBe(false);
  });

  it('keeps a word that is no member and no greeting, and a name inside the sentence', () => {
    expect(strip('Grafana, not Kibana, should host the disk dashboards.')).toBe('Grafana, not Kibana, should host the disk dashboards.');
    expect(strip('Overall, the disk checks belong to the storage team.')).toBe('Overall, the disk checks belong to the storage team.');
    expect(strip('Ask Priya before the disk checks move.')).toBe('Ask Priya before the disk checks move.');
  });

  it('keeps a sentence that is nothing but the greeting', () => {
    expect(strip('Hi all, thanks!')).toBe('Hi all, thanks!');
  });
});
