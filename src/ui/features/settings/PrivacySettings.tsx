import { PRIVACY_LEVELS, PRIVACY_LABELS } from '../../../core/privacy/disclose';
import { privacyLevelOf, privacyTarget } from '../../lib/privacy-settings';
import { useAsk } from '../../store/ask-store';
import { usePrivacy } from '../../store/privacy-store';

/** What of the file's cell values the model server may see, and whether each prompt waits for Send. */
export function PrivacySettings() {
  const model = useAsk((s) => s.model);
  const privacy = usePrivacy((s) => s.settings);
  const setLevel = usePrivacy((s) => s.setLevel);
  const setReview = usePrivacy((s) => s.setReviewPrompts);
  const target = privacyTarget(model);
  const level = privacyLevelOf(model, privacy);
  return (
    <fieldset className="privacy-settings" data-testid="privacy-settings">
      <legend>Privacy</legend>
      {target ? (
        <label>
          What {target.split(' ')[1]} may see of cell values
          <select
            aria-label="Privacy level"
            value={level ?? ''}
            onChange={(e) => setLevel(target, e.target.value as (typeof PRIVACY_LEVELS)[number])}
          >
            {!level && <option value="">(asked at first use)</option>}
            {PRIVACY_LEVELS.map((l) => (
              <option key={l} value={l}>
                {PRIVACY_LABELS[l]}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="small">This model runs in the browser or on this computer: it sees the values the tools find.</p>
      )}
      <label className="check">
        <input type="checkbox" checked={privacy.reviewPrompts} onChange={(e) => setReview(e.target.checked)} />
        Show each prompt before it is sent, and send it only when I press Send
      </label>
    </fieldset>
  );
}
