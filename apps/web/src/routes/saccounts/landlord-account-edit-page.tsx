import { AccountEditView } from '../account/account-edit-view.tsx';

/** /saccounts/{name}: the landlord's account edit (core §2). */
export function LandlordAccountEditPage() {
  return <AccountEditView landlord />;
}
