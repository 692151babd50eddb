import type { ApiError } from '../../../../shared/api/api-error.js';

/** The grower form's fields a server field path names (`user.phone` → `phone`, …). */
const FIELD_OF: Record<string, string> = {
  'user.lastname': 'lastname',
  'user.firstname': 'firstname',
  'user.nip': 'nip',
  'user.phone': 'phone',
  'user.email': 'email',
  'user.contactFullname': 'contactFullname',
  'user.contactPhone': 'contactPhone',
  'user.department': 'address.department',
  'user.borough': 'address.commune',
  'user.district': 'address.arrondissement',
  'user.village': 'address.village',
  farmerOrganizationId: 'cooperative',
  'momoInfo.momoNumber': 'momoNumber',
  'accountInfo.providerName': 'bankName',
  'accountInfo.accountNumber': 'bankAccountNumber',
};

const PLOT_FIELD: Record<string, string> = {
  department: 'place.department',
  borough: 'place.commune',
  district: 'place.arrondissement',
  village: 'place.village',
};

/**
 * The form fields the server's answer points at, with its French message: a 400's `fields`
 * (paths as the payload names them, `products.1.areaSown` included), and a 409 on a phone
 * already used (`PHONE_ALREADY_EXIST`) on the phone field.
 */
export function serverFieldErrors(error: ApiError): [string, string][] {
  const out: [string, string][] = [];
  for (const [path, message] of Object.entries(error.fields ?? {})) {
    const plot = /^products\.(\d+)\.(\w+)$/.exec(path);
    if (plot) out.push([`plots.${plot[1]}.${PLOT_FIELD[plot[2]!] ?? plot[2]}`, message]);
    else {
      const bare = path.startsWith('user.') ? path : `user.${path}`;
      const field = FIELD_OF[path] ?? FIELD_OF[bare];
      if (field) out.push([field, message]);
    }
  }
  if (
    error.status === 409 &&
    /PHONE/.test(error.reason ?? '') &&
    !out.some(([f]) => f === 'phone')
  ) {
    out.push(['phone', error.message]);
  }
  return out;
}
