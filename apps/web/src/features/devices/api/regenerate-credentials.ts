import { MqttCredentialsSchema } from '@fleet/shared/schemas/device';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api/api.ts';
import { devicePath } from '../../../lib/api/device-paths.ts';

const AnswerSchema = z.object({ data: MqttCredentialsSchema });
export type MqttCredentials = z.infer<typeof MqttCredentialsSchema>;

/** POST device/{name}/credentials: a new MQTT password, shown this once; the old one stops working. */
export function useRegenerateCredentials(landlord: boolean, name: string) {
  return useMutation({
    mutationFn: async () => {
      const answer = await api.post(devicePath(landlord, name) + '/credentials', undefined, {
        parse: (data) => AnswerSchema.parse(data),
      });
      return answer.data;
    },
    onError: (error) => console.error('Credentials not regenerated:', error),
  });
}
