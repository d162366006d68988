import { AccountEditView } from './account-edit-view.tsx';

/** /account/{name}: an entity account's edit (core §2). */
export function AccountEditPage() {
  return <AccountEditView landlord={false} />;
}
