// @vitest-environment happy-dom
/**
 * The custom range's pickers name the UTC offset of the date each shows, not one offset for both:
 * a From in July at a London site is UTC+01:00 (BST) even when the To is in November (UTC+00:00).
 */
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import RangeChooser from '../../../src/renderer/src/features/data/RangeChooser.vue';

describe('range pickers’ offsets', () => {
  it('says each picker’s own offset across a daylight-saving change', () => {
    const wrapper = mount(RangeChooser, {
      props: {
        modelValue: { kind: 'custom', start: Date.UTC(2026, 6, 14, 9), end: Date.UTC(2026, 10, 20, 9) },
        zone: 'Europe/London',
      },
      attachTo: document.body,
    });
    const labels = wrapper.findAll('label.field-label').map((label) => label.text());
    expect(labels).toEqual(['From (UTC+01:00)', 'To (UTC+00:00)']);
    wrapper.unmount();
  });

  it('says the summer offset on both pickers of a summer range', () => {
    const wrapper = mount(RangeChooser, {
      props: {
        modelValue: { kind: 'custom', start: Date.UTC(2026, 6, 14, 9), end: Date.UTC(2026, 6, 21, 9) },
        zone: 'Europe/London',
      },
      attachTo: document.body,
    });
    expect(wrapper.findAll('label.field-label').map((label) => label.text())).toEqual([
      'From (UTC+01:00)',
      'To (UTC+01:00)',
    ]);
    wrapper.unmount();
  });
});
